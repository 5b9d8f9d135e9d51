export { certificatesService } from './service.ts';
export { certificatesConfig, type CertificatesConfig } from './config.ts';
export { certificatesMigrations } from './data/migrations.ts';
export { newCertificateCode } from './domain/codes.ts';
export { autoReleaseRound } from './domain/release.ts';
export { certificatePdf } from './domain/pdf.ts';
