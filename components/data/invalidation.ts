// What a mesh event invalidates: the lists always (counts and errors may change), and each proxy named —
// or every proxy's detail when the event says `all` (large meshes do not list them).
import type { MeshEvent } from '@/server/api/contract';
import { queryKeys } from './queryKeys';

export function keysToInvalidate(e: MeshEvent): (readonly string[])[] {
  if (e.all) return [queryKeys.proxies(), queryKeys.errors(), queryKeys.everyProxy(), queryKeys.mesh()];
  return [queryKeys.proxies(), queryKeys.errors(), ...e.proxies.map((id) => queryKeys.proxy(id))];
}
