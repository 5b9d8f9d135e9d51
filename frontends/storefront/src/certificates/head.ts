import { brand, certificatePagePath, type PublicCertificateView } from '@ticketing/proto';
import type { PageHead } from '@ticketing/shared';

/** A certificate's check: found only by its code, so never indexed; it names the event, never the person. */
export function certificateHead(code: string, certificate: PublicCertificateView | undefined): PageHead {
  return certificate
    ? {
        title: `Verificação de certificado · ${brand.name}`,
        description: `Certificado de participação em ${certificate.eventTitle}: ${certificate.status}.`,
        canonicalPath: certificatePagePath(certificate.code),
        noindex: true,
      }
    : {
        title: `Certificado não encontrado · ${brand.name}`,
        description: 'Nenhum certificado emitido tem este código.',
        canonicalPath: certificatePagePath(code.trim().toUpperCase()),
        noindex: true,
      };
}
