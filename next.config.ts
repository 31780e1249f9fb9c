import type { NextConfig } from 'next';
import { ENV_VAR, maxBodyBytes, parseRuntimeConfig } from './server/api/runtimeConfig';

const config: NextConfig = {
  // Several builds may share a checkout (parallel test runs): MESHSCOPE_DIST_DIR gives each its own.
  distDir: process.env.MESHSCOPE_DIST_DIR || '.next',
  // grpc-js and client-node must stay one copy per process (instanceof, shared state): stack-notes.md §1.
  serverExternalPackages: ['@grpc/grpc-js', '@grpc/grpc-js-xds', '@grpc/proto-loader', '@kubernetes/client-node'],
  poweredByHeader: false,
  // Next type-checks during `next build` (measured: about 11 s of a 90 s first build on 2 busy cores), so a
  // build never ships code that does not type-check.
  typescript: { ignoreBuildErrors: false },
  reactStrictMode: true,
  // proxy.ts must see the request target as sent (its 400 for bad percent-encoding): without this,
  // Next.js re-serializes the query first, turning `%FF` into a valid `%EF%BF%BD`.
  skipProxyUrlNormalize: true,
  experimental: {
    // proxy.ts makes Next.js copy every request body for it, buffering at most this much (the chunk that
    // crosses it is dropped whole). Past the body limit by more than a socket read (64 KiB), so the
    // proxy and the route see more than the limit when the client sent more: 413, never a silent cut.
    proxyClientMaxBodySize: maxBodyBytes(parseRuntimeConfig(process.env[ENV_VAR]).config) + 1024 * 1024,
  },
};

export default config;
