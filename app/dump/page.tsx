// Open an Envoy /config_dump (upload or paste) and browse it with the proxy views.
import { DumpOpen } from '@/components/dump/DumpOpen';

export const metadata = { title: 'Open a config dump · meshscope' };

export default function DumpPage() {
  return <DumpOpen />;
}
