import { createRoot } from 'react-dom/client';
import '../ui/styles.css';
import { PermissionPage } from './PermissionPage';

createRoot(document.getElementById('root')!).render(<PermissionPage />);
