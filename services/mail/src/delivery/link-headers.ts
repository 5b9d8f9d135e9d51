import type { ServiceAuth } from '@ticketing/platform';

/**
 * The headers of a fetch of an attachment by its link: a fresh service token addressed to the file's owner,
 * certificates for a certificate's PDF, courtesy for the file of a mass send.
 */
export const linkHeadersFor =
  (serviceAuth: Pick<ServiceAuth, 'token'>, certificatesUrl: string) =>
  async (href: string): Promise<Record<string, string>> => ({
    authorization: `Bearer ${await serviceAuth.token(href.startsWith(certificatesUrl) ? 'certificates' : 'courtesy')}`,
  });
