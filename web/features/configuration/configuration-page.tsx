import { PageHeader } from '#web/components/ui/page-header';
import { DelaisSection } from './delais-section';
import { RappelsSection } from './rappels-section';

export default function ConfigurationPage() {
  return (
    <>
      <PageHeader title="Configuration" />
      <DelaisSection />
      <RappelsSection />
    </>
  );
}
