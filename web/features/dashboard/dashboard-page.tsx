import { PageHeader } from '../../components/ui/page-header';
import { Placeholder } from '../../components/ui/placeholder';

export default function DashboardPage() {
  return (
    <>
      <PageHeader title="Tableau de bord" />
      <Placeholder />
    </>
  );
}
