import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button, Spinner } from '@ticketing/shared';
import { DecoderUnavailable, startCamera, type RunningCamera } from './camera.ts';
import { TorchToggle } from './TorchToggle.tsx';
import './camera.css';

type CameraStatus = 'starting' | 'scanning' | 'refused' | 'unavailable';

interface CameraProps {
  barcodes: boolean;
  onRead(text: string): void;
  /** Starts the camera over (the parent remounts this component). */
  onRetry(): void;
  /** What shows above the picture (the verification in flight). */
  children?: ReactNode;
}

/** The camera's picture with its scan box; started when shown and stopped when the page is left. */
export function Camera({ barcodes, onRead, onRetry, children }: CameraProps) {
  const elementId = `leitor-${useId().replace(/[^\w-]/g, '')}`;
  const [status, setStatus] = useState<CameraStatus>('starting');
  const [torch, setTorch] = useState<RunningCamera['torch']>(null);
  const latestRead = useRef(onRead);
  useEffect(() => {
    latestRead.current = onRead;
  });

  useEffect(() => {
    let left = false;
    const started = startCamera(elementId, (text) => latestRead.current(text), { barcodes });
    started.then(
      (camera) => {
        if (left) return;
        setTorch(camera.torch);
        setStatus('scanning');
      },
      (error: unknown) => left || setStatus(error instanceof DecoderUnavailable ? 'unavailable' : 'refused'),
    );
    return () => {
      left = true;
      // A camera still starting is stopped as soon as it has started.
      void started.then((camera) => camera.stop()).catch(() => {});
    };
  }, [elementId, barcodes]);

  const failed = status === 'refused' || status === 'unavailable';
  return (
    <>
      <div className="scanner__stage" aria-busy={status === 'starting'}>
        {/* Filled by the decoder with the camera's picture: React leaves its content alone. */}
        <div id={elementId} className="scanner__reader" />
        {status === 'starting' && (
          <div className="scanner__status">
            <Spinner size="lg" label="Iniciando câmera..." />
          </div>
        )}
        {failed && (
          <div className="scanner__failure" role="alert">
            <h2 className="scanner__failure-title">
              {status === 'refused' ? 'Erro ao acessar câmera' : 'Não foi possível carregar o leitor'}
            </h2>
            <p>
              {status === 'refused'
                ? 'Permita o uso da câmera nas configurações do navegador e tente novamente.'
                : 'Verifique sua conexão com a internet e tente novamente.'}
            </p>
            <Button variant="outline" onClick={onRetry}>
              Tentar novamente
            </Button>
          </div>
        )}
        {status === 'scanning' && torch && <TorchToggle torch={torch} />}
        {children}
      </div>
      {status === 'scanning' && <p className="scanner__hint">Aponte a câmera para o QR Code do ingresso</p>}
    </>
  );
}
