import { PageHeader } from '../../components/ui/page-header';
import { Placeholder } from '../../components/ui/placeholder';

export default function PartenairesPage() {
  return (
    <>
      <PageHeader title="Liste des Partenaires" />
      <Placeholder />
    </>
  );
}
