// The demo echo service (proto/echo.proto), loaded with @grpc/proto-loader: its service definition for the
// pod servers and the method a client calls. The .proto path is given by the caller (the runtime resolves
// it against the repository root).
import type * as grpc from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';

export const ECHO_METHOD = '/meshscope.demo.v1.Echo/Echo';

export interface EchoRequest {
  source: string;
}

export interface EchoReply {
  pod: string;
  namespace: string;
  version: string;
  app: string;
  address: string;
}

export interface EchoService {
  definition: grpc.ServiceDefinition;
  method: grpc.MethodDefinition<EchoRequest, EchoReply>;
}

export function loadEchoService(protoPath: string): EchoService {
  const pkg = loadSync(protoPath, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
  const def = pkg['meshscope.demo.v1.Echo'] as grpc.ServiceDefinition | undefined;
  if (!def?.Echo) throw new Error(`${protoPath}: no service meshscope.demo.v1.Echo`);
  return { definition: def as grpc.ServiceDefinition, method: def.Echo as grpc.MethodDefinition<EchoRequest, EchoReply> };
}
