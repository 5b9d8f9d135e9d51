/** An event's certificate settings, with their defaults (`GET /api/events/:id/certificate`). */
export const certificateSettingsKey = (eventId: string) => ['events', eventId, 'certificate'];

/** The certificates issued for an event (`GET /api/events/:id/certificates`). */
export const eventCertificatesKey = (eventId: string) => ['events', eventId, 'certificates'];
