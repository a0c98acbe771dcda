import { PageHeader } from '#web/components/ui/page-header';
import { DelaisSection } from './delais-section';

export default function ConfigurationPage() {
  return (
    <>
      <PageHeader title="Configuration" />
      <DelaisSection />
    </>
  );
}
