// The sign-in page (`serve --auth token|header|openid`); without sign-in there is nothing to sign in to.
import { SignIn } from '@/components/auth/SignIn';
import { ENV_VAR, parseRuntimeConfig } from '@/server/api/runtimeConfig';
import { authSettings } from '@/server/auth/settings';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Sign in · meshscope' };

export default function SignInPage() {
  const { mode } = authSettings(parseRuntimeConfig(process.env[ENV_VAR]).config);
  if (mode === 'none') return <section className="panel">Sign-in is off: this meshscope runs with --auth none.</section>;
  return <SignIn mode={mode} openidStart="/api/auth/openid/start" />;
}
