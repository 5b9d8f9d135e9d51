import { brand, saoPauloClock, type EventView } from '@ticketing/proto';
import { formatBRL, formatDate, formatTime, type PageHead } from '@ticketing/shared';
import { isSoldOut } from './events/availability.ts';
import { eventSpan } from './events/schedule.ts';

/** What the site says of itself where no page says more (the home page, a shared link to the list). */
const SITE_DESCRIPTION =
  'Workshops, cursos e congressos para farmacêuticos e a indústria farmacêutica: capacitação prática com ' +
  'especialistas do setor, do chão de fábrica aos assuntos regulatórios.';

/** The image a shared link shows when the page has none of its own (1200 × 630, the size link previews use). */
const SHARE_IMAGE = { path: '/images/share.png', width: 1200, height: 630 };

const RASTER = /\.(png|jpe?g|webp|gif)$/i;

/** Link previews (WhatsApp, Instagram) show no SVG: the seed images ship a PNG beside each SVG. */
function shareImage(imageUrl: string | null, origin: string, alt: string): NonNullable<PageHead['image']> {
  const absolute = (path: string) => new URL(path, origin).href;
  if (imageUrl && RASTER.test(new URL(imageUrl, origin).pathname)) return { url: absolute(imageUrl), alt };
  if (imageUrl?.startsWith('/images/') && imageUrl.endsWith('.svg')) {
    return { url: absolute(imageUrl.replace(/\.svg$/, '.png')), width: 1200, height: 675, alt };
  }
  return { url: absolute(SHARE_IMAGE.path), width: SHARE_IMAGE.width, height: SHARE_IMAGE.height, alt: brand.name };
}

const organization = (origin: string) => ({
  '@type': 'Organization',
  name: brand.name,
  url: `${origin}/`,
  email: brand.supportEmail,
  sameAs: Object.values(brand.social),
});

/** A page of the site that is not about one event. */
export function siteHead(title: string, canonicalPath: string, origin: string): PageHead {
  return {
    title: `${title} · ${brand.name}`,
    description: SITE_DESCRIPTION,
    canonicalPath,
    image: shareImage(null, origin, brand.name),
    structuredData: { '@context': 'https://schema.org', ...organization(origin) },
  };
}

/** At most `length` characters of the text on one line, cut at a word. */
function excerpt(text: string, length: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= length) return line;
  return `${line.slice(0, line.lastIndexOf(' ', length - 1)).replace(/[\s,.;:—-]+$/, '')}…`;
}

/** An instant in Brazil's time, with its offset: `2026-03-15T19:00:00-03:00`. */
function localTime(iso: string): string {
  const clock = saoPauloClock(new Date(iso));
  return `${clock.year}-${clock.month}-${clock.day}T${clock.hour}:${clock.minute}:${clock.second}${clock.offset}`;
}

/** An event's page: its own title, a summary that says when and where, its image and schema.org `Event`. */
export function eventHead(event: EventView, origin: string): PageHead {
  const url = `${origin}/event/${event.id}`;
  const days =
    event.sessions.length > 1 ? eventSpan(event.sessions) : `${formatDate(event.date)}, ${formatTime(event.date)}`;
  const when = `${days} · ${event.location}`;
  const image = shareImage(event.imageUrl, origin, event.title);
  return {
    title: `${event.title} · ${brand.name}`,
    description: excerpt(`${when}. ${formatBRL(event.price)}. ${event.description}`, 200),
    canonicalPath: `/event/${event.id}`,
    noindex: !event.listed,
    image,
    structuredData: {
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: event.title,
      description: excerpt(event.description, 500),
      startDate: localTime(event.date),
      endDate: localTime(event.sessions.at(-1)?.endsAt ?? event.date),
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      location: { '@type': 'Place', name: event.location, address: event.location },
      image: [image.url],
      url,
      organizer: organization(origin),
      offers: {
        '@type': 'Offer',
        url,
        price: event.price,
        priceCurrency: 'BRL',
        availability: `https://schema.org/${isSoldOut(event) || !event.isActive ? 'SoldOut' : 'InStock'}`,
      },
    },
  };
}

/** The page of an event that does not exist (or no longer does). */
export const missingEventHead = (): PageHead => ({
  title: `Evento não encontrado · ${brand.name}`,
  description: 'O evento que você procura não existe ou não está mais disponível.',
  canonicalPath: '/eventos',
  noindex: true,
});
