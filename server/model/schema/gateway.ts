// zod schema of networking.istio.io Gateway spec (istio/api networking/v1alpha3/gateway.proto).
import { z } from 'zod';
import type { GatewaySpec } from '../istio';
import { stringMap, uint } from './common';

export const serverTls = z.strictObject({
  httpsRedirect: z.boolean().optional(),
  mode: z.enum(['PASSTHROUGH', 'SIMPLE', 'MUTUAL', 'AUTO_PASSTHROUGH', 'ISTIO_MUTUAL', 'OPTIONAL_MUTUAL']).optional(),
  serverCertificate: z.string().optional(),
  privateKey: z.string().optional(),
  caCertificates: z.string().optional(),
  caCrl: z.string().optional(),
  credentialName: z.string().optional(),
  credentialNames: z.array(z.string()).optional(),
  caCertCredentialName: z.string().optional(),
  tlsCertificates: z
    .array(
      z.strictObject({
        serverCertificate: z.string().optional(),
        privateKey: z.string().optional(),
        caCertificates: z.string().optional(),
      }),
    )
    .optional(),
  insecureSkipVerify: z.boolean().optional(),
  subjectAltNames: z.array(z.string()).optional(),
  verifyCertificateSpki: z.array(z.string()).optional(),
  verifyCertificateHash: z.array(z.string()).optional(),
  minProtocolVersion: z.enum(['TLS_AUTO', 'TLSV1_0', 'TLSV1_1', 'TLSV1_2', 'TLSV1_3']).optional(),
  maxProtocolVersion: z.enum(['TLS_AUTO', 'TLSV1_0', 'TLSV1_1', 'TLSV1_2', 'TLSV1_3']).optional(),
  cipherSuites: z.array(z.string()).optional(),
});

const gatewayPort = z.strictObject({
  number: uint,
  protocol: z.string(),
  name: z.string(),
  targetPort: uint.optional(),
});

export const gatewaySpec: z.ZodType<GatewaySpec> = z.strictObject({
  servers: z.array(
    z.strictObject({
      port: gatewayPort,
      bind: z.string().optional(),
      hosts: z.array(z.string()),
      tls: serverTls.optional(),
      defaultEndpoint: z.string().optional(),
      name: z.string().optional(),
    }),
  ),
  selector: stringMap.optional(),
});
