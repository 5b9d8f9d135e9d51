import { useQuery } from '@tanstack/react-query';
import type { PublicCertificateView } from '@ticketing/proto';

/** The public check of a certificate's code (`/api/certificates/<code>`). */
export const certificateQueryKey = (code: string) => ['certificates', code.trim().toUpperCase()];

export const useCertificate = (code: string) =>
  useQuery<PublicCertificateView>({ queryKey: certificateQueryKey(code) });
