'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';

const LINKS = [
  { href: '/', label: 'Overview', match: (p: string) => p === '/' },
  { href: '/proxies', label: 'Proxies', match: (p: string) => p.startsWith('/proxies') },
  { href: '/sandbox', label: 'Sandbox', match: (p: string) => p.startsWith('/sandbox') },
  { href: '/demo', label: 'Traffic demo', match: (p: string) => p.startsWith('/demo') },
  { href: '/mesh', label: 'Mesh config', match: (p: string) => p.startsWith('/mesh') },
  { href: '/ztunnel', label: 'ztunnel', match: (p: string) => p.startsWith('/ztunnel') },
  { href: '/dump', label: 'Open a config dump', match: (p: string) => p.startsWith('/dump') },
];

export function Nav() {
  const path = usePathname() ?? '/';
  return (
    <nav aria-label="main" className="main-nav">
      {LINKS.map((l) => (
        <Link key={l.href} href={l.href} aria-current={l.match(path) ? 'page' : undefined} className={l.match(path) ? 'active' : undefined}>
          {l.label}
        </Link>
      ))}
      <span className="nav-debug">
        <a href="/debug/syncz?pretty">syncz</a>
        <a href="/debug/registryz?pretty">registryz</a>
        <a href="/debug/configz?pretty">configz</a>
        <a href="/debug/mesh?pretty">mesh</a>
      </span>
    </nav>
  );
}
