import { useParams } from 'wouter';
import { PageHeader } from '../../components/ui/page-header';
import { Placeholder } from '../../components/ui/placeholder';

export default function SignalementDetailPage() {
  const { code = '' } = useParams<{ code: string }>();
  return (
    <>
      <PageHeader
        title={code}
        breadcrumb={[{ label: 'Signalements', href: '/signalement/list' }, { label: `Détail (${code})` }]}
      />
      <Placeholder />
    </>
  );
}
