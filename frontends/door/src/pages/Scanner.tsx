import { useState } from 'react';
import { Page, Spinner, useAuth } from '@ticketing/shared';
import { useDoorEvent } from '../door/events.ts';
import { useDoorOwner, useForgetPast } from '../door/useDoorData.ts';
import { useDoorPwa } from '../door/useDoorPwa.ts';
import { DoorPanel } from '../door-panel/DoorPanel.tsx';
import { LookUp } from '../lookup/LookUp.tsx';
import { Camera } from '../scanner/Camera.tsx';
import { DoorOptions } from '../scanner/DoorOptions.tsx';
import { enableSound } from '../scanner/feedback.ts';
import { LastReadings } from '../scanner/LastReadings.tsx';
import { SyncStatus } from '../scanner/SyncStatus.tsx';
import { useDoor } from '../scanner/useDoor.ts';
import { VerdictOverlay } from '../scanner/VerdictOverlay.tsx';
import '../scanner/scanner.css';

const ignoreReading = () => {};

/**
 * /verificar: the door's phone scans tickets and shows, over the whole screen, who may come in. With an event
 * chosen it decides on the device first, so a network drop does not stop the door. What the phone kept for another
 * account is forgotten before anything is shown.
 */
export default function Scanner() {
  const user = useAuth().user;
  const owned = useDoorOwner(user?.id ?? '');
  if (!user || !owned)
    return (
      <Page title="Verificar Ingresso" className="scanner-page">
        <Spinner label="Carregando..." />
      </Page>
    );
  return <Door isAdmin={user.roles.includes('admin')} />;
}

function Door({ isAdmin }: { isAdmin: boolean }) {
  const { events, eventId, sessions, sessionId, decided, choose, chooseSession, titleOf } = useDoorEvent(isAdmin);
  useForgetPast(events.data);
  const [barcodes, setBarcodes] = useState(false);
  const [cameraStart, setCameraStart] = useState(0);
  const door = useDoor(eventId || undefined, sessionId, titleOf);
  const codeKept = useDoorPwa();

  return (
    <Page title="Verificar Ingresso" className="scanner-page">
      <div className="scanner" onPointerDown={enableSound}>
        <SyncStatus status={door.status} codeKept={codeKept} sessions={sessions} />
        <Camera
          // A new start for each retry and for each change of formats: the decoder reads its formats once.
          key={`${cameraStart}-${barcodes}`}
          barcodes={barcodes}
          // Readings wait for the door's event: the camera reads the ticket again once it is known.
          onRead={decided ? door.read : ignoreReading}
          onRetry={() => setCameraStart(cameraStart + 1)}
        >
          {door.verifying && (
            <div className="scanner__verifying">
              <Spinner label="Verificando ingresso..." />
            </div>
          )}
        </Camera>
        {eventId && sessionId && <DoorPanel eventId={eventId} sessionId={sessionId} sessions={sessions} compact />}
        <DoorOptions
          events={events}
          eventId={eventId}
          onEventChange={choose}
          sessions={sessions}
          sessionId={sessionId}
          onSessionChange={chooseSession}
          mayChooseAll={isAdmin}
          barcodes={barcodes}
          onBarcodesChange={setBarcodes}
        />
        {eventId && sessionId && <LookUp eventId={eventId} sessionId={sessionId} onAdmit={door.admit} />}
        <LastReadings version={door.status.readings} mayReset={isAdmin} />
      </div>
      {door.verdict && <VerdictOverlay verdict={door.verdict} />}
    </Page>
  );
}
