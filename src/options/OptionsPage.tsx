import { t } from '../ui/i18n';
import { ProviderForm } from './ProviderForm';

export function OptionsPage() {
  return (
    <main className="mx-auto max-w-2xl space-y-6 p-6">
      <h1 className="text-xl font-semibold">{t('settingsTitle')}</h1>
      <ProviderForm />
    </main>
  );
}
