'use client';
// The signed-in user in the top bar, with sign-out (POST /api/auth/logout, then the sign-in page).
import { useState } from 'react';
import { csrfHeader } from '../data/csrf';

export function UserMenu({ user, groups }: { user: string; groups: readonly string[] }) {
  const [busy, setBusy] = useState(false);
  const signOut = async () => {
    setBusy(true);
    await fetch('/api/auth/logout', { method: 'POST', headers: { ...csrfHeader() } }).catch(() => undefined);
    window.location.assign('/signin');
  };
  return (
    <span className="user-menu" data-testid="user-menu" title={groups.length ? `groups: ${groups.join(', ')}` : undefined}>
      <span data-testid="signed-in-user">{user}</span>{' '}
      <button type="button" onClick={signOut} disabled={busy} data-testid="sign-out">
        Sign out
      </button>
    </span>
  );
}
