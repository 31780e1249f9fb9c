import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { UserMenu } from '@/components/auth/UserMenu';
import { CSRF_META } from '@/components/data/csrf';
import { QueryProvider } from '@/components/data/QueryProvider';
import { csrfBinding, forwardedPrincipal } from '@/server/auth/identity';
import { sessionSecret } from '@/server/auth/secret';
import { csrfToken } from '@/server/auth/session';
import { LiveProvider } from '@/components/layout/LiveContext';
import { LiveIndicator } from '@/components/layout/LiveIndicator';
import { Nav } from '@/components/layout/Nav';
import { THEME_SCRIPT } from '@/components/layout/theme';
import { ThemeToggle } from '@/components/layout/ThemeToggle';
import './globals.css';
import '@/components/layout/layout.css';

export const metadata: Metadata = {
  title: 'meshscope',
  description: 'Inspect the Envoy config istiod would send every proxy in your mesh.',
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // proxy.ts sets a fresh nonce per request; the CSP allows only scripts carrying it (Next.js adds it
  // to its own scripts by itself). Reading headers() also makes every page render per request.
  const h = await headers();
  const nonce = h.get('x-nonce') ?? undefined;
  // Sign-in (`serve --auth`): who is signed in, and the session's CSRF token for the UI's writes.
  const principal = forwardedPrincipal(h);
  const secret = sessionSecret();
  const bind = principal ? csrfBinding(principal) : undefined;
  const csrf = bind && secret ? csrfToken(secret, bind) : undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Applies a stored light/dark choice before first paint. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant in this file, no user input; runs under the CSP nonce */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        {csrf && <meta name={CSRF_META} content={csrf} />}
      </head>
      <body>
        <QueryProvider>
          <LiveProvider>
            <header className="top">
              <Link href="/" className="brand">
                meshscope
              </Link>
              <Nav />
              <LiveIndicator />
              <ThemeToggle />
              {principal && principal.via !== 'bearer' && <UserMenu user={principal.user} groups={principal.groups} />}
            </header>
            <main>{children}</main>
          </LiveProvider>
        </QueryProvider>
      </body>
    </html>
  );
}
