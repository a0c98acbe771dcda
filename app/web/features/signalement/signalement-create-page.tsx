import { PageHeader } from '#web/components/ui/page-header';
import { Placeholder } from '#web/components/ui/placeholder';

export default function SignalementCreatePage() {
  return (
    <>
      <PageHeader title="Formulaire" />
      <Placeholder />
    </>
  );
}
