import { PageHeader } from '#web/components/ui/page-header';
import { DelaisSection } from './delais-section';
import { RappelsSection } from './rappels-section';

export default function ConfigurationPage() {
  return (
    <>
      <PageHeader title="Configuration" />
      <div className="flex flex-col gap-4">
        <DelaisSection />
        <RappelsSection />
      </div>
    </>
  );
}
