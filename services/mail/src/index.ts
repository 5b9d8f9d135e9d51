export { mailService } from './service.ts';
export { mailConfig, type MailConfig } from './config.ts';
export { mailMigrations } from './data/migrations.ts';
export { queueEmail, dedupeKeyFor, type EmailRequest, type QueueOutcome } from './domain/queue-email.ts';
export { forgetUser } from './domain/forget-user.ts';
export { emailAttachment, type EmailAttachment } from './domain/attachments.ts';
export {
  emailEvents,
  resetPasswordUrl,
  courtesyAttachment,
  courtesyAttachmentUrl,
  certificatePdfUrl,
} from './consumers/email-events.ts';
export { linkHeadersFor } from './delivery/link-headers.ts';
export { isPermanent, describeError } from './delivery/errors.ts';
export { templates, renderEmail, type TemplateName, type TemplateData, type RenderedEmail } from './templates/index.ts';
