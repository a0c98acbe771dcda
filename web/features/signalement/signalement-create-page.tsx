import { PageHeader } from '../../components/ui/page-header';
import { Placeholder } from '../../components/ui/placeholder';

export default function SignalementCreatePage() {
  return (
    <>
      <PageHeader title="Formulaire" />
      <Placeholder />
    </>
  );
}
