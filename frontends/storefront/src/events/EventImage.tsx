import { useState } from 'react';
import { cx } from '@ticketing/shared';
import './events.css';

interface EventImageProps {
  src: string | null;
  /** The hero's image is on screen at once, often the largest thing on it: it loads eagerly, before other images. */
  eager?: boolean;
  className?: string;
}

/**
 * The event's illustration in a fixed 16:9 frame, so nothing shifts while it loads. The title beside it says
 * what it shows, so it is decorative; without an image (or if it fails) the frame shows the brand pattern.
 */
export function EventImage({ src, eager = false, className }: EventImageProps) {
  const [failed, setFailed] = useState(false);
  return (
    <div className={cx('event-image', className)}>
      {src && !failed && (
        <img
          src={src}
          alt=""
          width={1200}
          height={675}
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={eager ? 'high' : 'auto'}
          decoding="async"
          onError={() => setFailed(true)}
        />
      )}
    </div>
  );
}
