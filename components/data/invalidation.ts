// What a mesh event invalidates: the lists always (counts and errors may change), and each proxy named.
import type { MeshEvent } from '@/server/api/events';
import { queryKeys } from './queryKeys';

export function keysToInvalidate(e: MeshEvent): (readonly string[])[] {
  return [queryKeys.proxies(), queryKeys.errors(), ...e.proxies.map((id) => queryKeys.proxy(id))];
}
