import { useState } from 'react';
import { Page, Spinner } from '@ticketing/shared';
import { Camera } from '../scanner/Camera.tsx';
import { DoorOptions } from '../scanner/DoorOptions.tsx';
import { enableSound } from '../scanner/feedback.ts';
import { useDoor } from '../scanner/useDoor.ts';
import { VerdictOverlay } from '../scanner/VerdictOverlay.tsx';
import '../scanner/scanner.css';

/** /verificar: the door's phone scans tickets and shows, over the whole screen, who may come in. */
export default function Scanner() {
  const [eventId, setEventId] = useState('');
  const [barcodes, setBarcodes] = useState(false);
  const [cameraStart, setCameraStart] = useState(0);
  const door = useDoor(eventId || undefined);

  return (
    <Page title="Verificar Ingresso" className="scanner-page">
      <div className="scanner" onPointerDown={enableSound}>
        <Camera
          // A new start for each retry and for each change of formats: the decoder reads its formats once.
          key={`${cameraStart}-${barcodes}`}
          barcodes={barcodes}
          onRead={door.read}
          onRetry={() => setCameraStart(cameraStart + 1)}
        >
          {door.verifying && (
            <div className="scanner__verifying">
              <Spinner label="Verificando ingresso..." />
            </div>
          )}
        </Camera>
        <DoorOptions eventId={eventId} onEventChange={setEventId} barcodes={barcodes} onBarcodesChange={setBarcodes} />
      </div>
      {door.verdict && <VerdictOverlay verdict={door.verdict} />}
    </Page>
  );
}
