import { t } from '../ui/i18n';
import { AuditSection } from './AuditSection';
import { PermissionsSection } from './PermissionsSection';
import { ProviderForm } from './ProviderForm';
import { VoiceSection } from './VoiceSection';

export function OptionsPage() {
  return (
    <main className="mx-auto max-w-4xl space-y-6 p-6">
      <h1 className="text-xl font-semibold">{t('settingsTitle')}</h1>
      <ProviderForm />
      <VoiceSection />
      <PermissionsSection />
      <AuditSection />
    </main>
  );
}
