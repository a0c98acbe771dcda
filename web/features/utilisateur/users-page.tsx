import { PageHeader } from '../../components/ui/page-header';
import { Placeholder } from '../../components/ui/placeholder';

export default function UsersPage() {
  return (
    <>
      <PageHeader title="Gestion des Utilisateurs" />
      <Placeholder />
    </>
  );
}
