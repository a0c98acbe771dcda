import { PageHeader } from '../../components/ui/page-header';
import { Placeholder } from '../../components/ui/placeholder';

export default function ConfigurationPage() {
  return (
    <>
      <PageHeader title="Configuration" />
      <Placeholder />
    </>
  );
}
