import { CollaboratorError, jsonClient, type Caller } from '@ticketing/platform';
import { buyerViewSchema, type BuyerView } from '@ticketing/proto';

/** A buyer as identity describes them for a purchase. */
export type Buyer = BuyerView;

export interface IdentityClient {
  /** The buyer, or null when the account does not exist (any more). */
  getUser(userId: string): Promise<Buyer | null>;
}

export function identityClient(baseUrl: string, timeoutMs: number, caller: Caller): IdentityClient {
  const http = jsonClient('identity', baseUrl, timeoutMs, caller);
  return {
    async getUser(userId) {
      try {
        return await http.call('GET', `/internal/users/${encodeURIComponent(userId)}`, buyerViewSchema);
      } catch (error) {
        if (error instanceof CollaboratorError && error.status === 404) return null;
        throw error;
      }
    },
  };
}
