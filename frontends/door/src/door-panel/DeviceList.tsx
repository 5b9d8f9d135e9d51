import type { DoorCountsView } from '@ticketing/proto';

/** How the per-device list names a device: its staff member, and a short id when one person holds two devices. */
function deviceNames(devices: DoorCountsView['devices']): Map<string, string> {
  const holders = new Map<string, number>();
  for (const { staffName } of devices) holders.set(staffName, (holders.get(staffName) ?? 0) + 1);
  return new Map(
    devices.map(({ deviceId, staffName }) => [
      deviceId,
      holders.get(staffName)! > 1 ? `${staffName} · aparelho ${deviceId.slice(0, 4)}` : staffName,
    ]),
  );
}

/** Admissions per device, most first, each with its share of the busiest device's count. */
export function DeviceList({ devices }: { devices: DoorCountsView['devices'] }) {
  if (devices.length === 0) return <p className="door-panel__empty">Nenhuma entrada registrada ainda.</p>;
  const names = deviceNames(devices);
  const busiest = Math.max(1, ...devices.map(({ admitted }) => admitted));
  return (
    <ol className="door-devices">
      {devices.map(({ deviceId, admitted }) => (
        <li key={deviceId} className="door-devices__item">
          <span className="door-devices__name">{names.get(deviceId)}</span>
          <span className="door-devices__count">
            {admitted}
            <span className="visually-hidden"> {admitted === 1 ? 'entrada' : 'entradas'}</span>
          </span>
          <span className="door-devices__bar" aria-hidden="true">
            <span className="door-devices__fill" style={{ width: `${(admitted / busiest) * 100}%` }} />
          </span>
        </li>
      ))}
    </ol>
  );
}
