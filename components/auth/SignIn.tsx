'use client';
// The sign-in form (`serve --auth token`): the user pastes a Kubernetes bearer token (e.g. `kubectl create
// token NAME`); meshscope has the cluster review it (TokenReview) and keeps a session cookie. The token is
// sent once, in the body, and never stored by the page or put in a URL.
import { type FormEvent, useState } from 'react';

/** Only a same-origin path may be returned to after sign-in. */
const safeNext = (next: string | null): string => (next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : '/');

export function SignIn({ mode, openidStart }: { mode: 'token' | 'header' | 'openid'; openidStart?: string }) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const token = String(new FormData(e.currentTarget).get('token') ?? '').trim();
    setBusy(true);
    setError(undefined);
    const res = await fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ token }),
    }).catch(() => undefined);
    setBusy(false);
    if (res?.ok) {
      window.location.assign(safeNext(new URLSearchParams(window.location.search).get('next')));
      return;
    }
    const body = (await res?.json().catch(() => ({}))) as { error?: string } | undefined;
    setError(body?.error ?? 'sign-in failed');
  };
  return (
    <section className="panel signin" data-testid="signin">
      <h1>Sign in to meshscope</h1>
      {mode === 'token' && (
        <form onSubmit={submit}>
          <p>
            Paste a Kubernetes bearer token (for example <code>kubectl create token NAME</code>). The cluster checks it, and you see the
            namespaces it lets you list pods in; applies run as you.
          </p>
          <label>
            Token <input name="token" type="password" autoComplete="off" required data-testid="signin-token" />
          </label>{' '}
          <button type="submit" disabled={busy} data-testid="signin-submit">
            Sign in
          </button>
        </form>
      )}
      {mode === 'openid' && openidStart && (
        <p>
          <a href={openidStart} data-testid="signin-openid">
            Sign in with your identity provider
          </a>
        </p>
      )}
      {mode === 'header' && <p>This meshscope trusts the sign-in of the proxy in front of it: reach it through that proxy.</p>}
      {error && (
        <p className="err" role="alert" data-testid="signin-error">
          {error}
        </p>
      )}
    </section>
  );
}
