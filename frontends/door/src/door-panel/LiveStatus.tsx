import { cx } from '@ticketing/shared';

/** Whether the counts on screen are live, or the stream is being opened again. */
export function LiveStatus({ live }: { live: boolean }) {
  return (
    <span className={cx('door-live', live && 'door-live--on')} role="status">
      <span className="door-live__dot" aria-hidden="true" />
      {live ? 'ao vivo' : 'reconectando…'}
    </span>
  );
}
