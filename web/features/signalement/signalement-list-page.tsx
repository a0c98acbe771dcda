import { PageHeader } from '../../components/ui/page-header';
import { Placeholder } from '../../components/ui/placeholder';

export default function SignalementListPage() {
  return (
    <>
      <PageHeader title="Signalements" breadcrumb={[{ label: 'Signalements' }]} />
      <Placeholder />
    </>
  );
}
