import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { DoorEventView } from '@ticketing/proto';
import { claimDevice, meQueryKey } from '@ticketing/shared';
import { forgetPast } from './forget.ts';

/**
 * The door's data on this device is `userId`'s: what another account left is forgotten before the door shows or
 * stores anything (true once done). The answers the door's service worker kept then are asked for again, so the
 * door still starts offline.
 */
export function useDoorOwner(userId: string): boolean {
  const queryClient = useQueryClient();
  const [claimed, setClaimed] = useState<string | null>(null);
  useEffect(() => {
    let left = false;
    void claimDevice(userId)
      .then(async (forgot) => {
        if (forgot) await queryClient.refetchQueries({ queryKey: meQueryKey });
      })
      .catch(() => {})
      .then(() => left || setClaimed(userId));
    return () => {
      left = true;
    };
  }, [userId, queryClient]);
  return claimed === userId;
}

/** Once the door's events are known, what belongs to events over (or no longer the door's) is forgotten. */
export function useForgetPast(events: DoorEventView[] | undefined) {
  useEffect(() => {
    if (events) void forgetPast(events, Date.now()).catch(() => {});
  }, [events]);
}
