// The simulator's request as JSON input (DESIGN.md §3 `meshscope simulate`): one zod schema for every
// place that reads one — POST /api/simulate, sandbox request checks and routing contracts.
import { z } from 'zod';

export const simRequestSchema = z.strictObject({
  mode: z.enum(['outbound', 'inbound', 'gateway', 'waypoint']),
  address: z.string().min(1).optional(),
  port: z.number().int().min(0).max(65535),
  host: z.string().optional(),
  path: z
    .string()
    .refine((p) => p === '' || p.startsWith('/'), 'path must start with /')
    .optional(),
  method: z.string().min(1).max(32).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  protocol: z.enum(['http', 'http2', 'tcp']).optional(),
  tls: z.enum(['plaintext', 'tls', 'mtls']).optional(),
  sni: z.string().optional(),
  alpn: z.array(z.string()).optional(),
  listener: z.string().min(1).optional(),
  sourcePrincipal: z.string().min(1).max(512).optional(),
  sourceNamespace: z.string().min(1).max(253).optional(),
  sourceIp: z.string().min(1).max(64).optional(),
});
