import type { Metadata } from 'next';
import { headers } from 'next/headers';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { QueryProvider } from '@/components/data/QueryProvider';
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
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Applies a stored light/dark choice before first paint. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant in this file, no user input; runs under the CSP nonce */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
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
            </header>
            <main>{children}</main>
          </LiveProvider>
        </QueryProvider>
      </body>
    </html>
  );
}
