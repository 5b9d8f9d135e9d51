import type { DoorCountsView } from '@ticketing/proto';
import { formatTime } from '@ticketing/shared';

const BAR = 10;
const GAP = 3;
const HEIGHT = 120;

const arrivals = (count: number) => (count === 1 ? '1 chegada' : `${count} chegadas`);

/**
 * Arrivals per minute over the last 30 minutes as bars, oldest on the left. Screen readers get the same figures as a
 * table instead of the picture.
 */
export function PerMinuteChart({ perMinute }: { perMinute: DoorCountsView['perMinute'] }) {
  const highest = Math.max(1, ...perMinute.map(({ count }) => count));
  const width = perMinute.length * (BAR + GAP) - GAP;
  return (
    <figure className="door-chart">
      <svg
        className="door-chart__bars"
        viewBox={`0 0 ${Math.max(width, 1)} ${HEIGHT}`}
        preserveAspectRatio="none"
        aria-hidden="true"
      >
        {perMinute.map(({ minute, count }, index) => {
          // A minute without arrivals keeps a sliver, so the timeline reads as one.
          const height = Math.max(1, (count / highest) * HEIGHT);
          return (
            <rect
              key={minute}
              className={count > 0 ? 'door-chart__bar' : 'door-chart__bar door-chart__bar--empty'}
              x={index * (BAR + GAP)}
              y={HEIGHT - height}
              width={BAR}
              height={height}
            >
              <title>{`${formatTime(minute)}: ${arrivals(count)}`}</title>
            </rect>
          );
        })}
      </svg>
      {perMinute.length > 0 && (
        <figcaption className="door-chart__axis" aria-hidden="true">
          <span>{formatTime(perMinute[0]!.minute)}</span>
          <span>máx. {highest}/min</span>
          <span>agora</span>
        </figcaption>
      )}
      <table className="visually-hidden">
        <caption>Chegadas por minuto nos últimos 30 minutos</caption>
        <thead>
          <tr>
            <th scope="col">Minuto</th>
            <th scope="col">Chegadas</th>
          </tr>
        </thead>
        <tbody>
          {perMinute.map(({ minute, count }) => (
            <tr key={minute}>
              <th scope="row">{formatTime(minute)}</th>
              <td>{count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
