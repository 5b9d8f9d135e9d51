import { CollaboratorError, jsonClient, type ServiceAuth } from '@ticketing/platform';

/** A buyer as identity describes them for a purchase. */
export interface Buyer {
  id: string;
  name: string;
  email: string;
  cpf: string | null;
  phone: string | null;
  emailVerified: boolean;
}

export interface IdentityClient {
  /** The buyer, or null when the account does not exist (any more). */
  getUser(userId: string): Promise<Buyer | null>;
}

export function identityClient(baseUrl: string, timeoutMs: number, auth: ServiceAuth): IdentityClient {
  const http = jsonClient('identity', baseUrl, timeoutMs, auth);
  return {
    async getUser(userId) {
      try {
        return await http.call<Buyer>('GET', `/internal/users/${encodeURIComponent(userId)}`);
      } catch (error) {
        if (error instanceof CollaboratorError && error.status === 404) return null;
        throw error;
      }
    },
  };
}
