import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { LiveBadge } from '@/components/common/LiveBadge';
import { QueryProvider } from '@/components/data/QueryProvider';
import './globals.css';

export const metadata: Metadata = {
  title: 'meshscope',
  description: 'Inspect the Envoy config istiod would send every proxy in your mesh.',
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <QueryProvider>
          <header className="top">
            <Link href="/" className="brand">
              meshscope
            </Link>
            <nav>
              <Link href="/">Proxies</Link>
              <a href="/debug/registryz?pretty">registryz</a>
              <a href="/debug/configz?pretty">configz</a>
              <a href="/debug/syncz?pretty">syncz</a>
            </nav>
            <LiveBadge />
          </header>
          <main>{children}</main>
        </QueryProvider>
      </body>
    </html>
  );
}
