import { createRoot } from 'react-dom/client';
import '../ui/styles.css';
import { OptionsPage } from './OptionsPage';

createRoot(document.getElementById('root')!).render(<OptionsPage />);
