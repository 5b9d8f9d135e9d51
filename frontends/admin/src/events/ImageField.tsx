import { useEffect, useState } from 'react';
import { catalogMessages, EVENT_IMAGE_LIMITS } from '@ticketing/proto';
import { FilePicker } from '../mass-send/FilePicker.tsx';

const TYPES: readonly string[] = EVENT_IMAGE_LIMITS.types;

/** Why the server would refuse `file`, checked before sending it (the server checks again, by content). */
export function imageProblem(file: File): string | undefined {
  if (!TYPES.includes(file.type)) return catalogMessages.imageType;
  if (file.size > EVENT_IMAGE_LIMITS.bytes) return catalogMessages.imageTooLarge;
  return undefined;
}

/** An address the browser can show `file` from, for as long as the file is picked. */
function useFileUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) return setUrl(null);
    const objectUrl = URL.createObjectURL(file);
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url;
}

interface ImageFieldProps {
  /** The event's stored image, shown until another is picked. */
  current: string | null;
  file: File | null;
  onPick(file: File | null): void;
  error?: string;
}

/** The event's image: the file picker and a preview in the storefront's 16:9 frame. */
export function ImageField({ current, file, onPick, error }: ImageFieldProps) {
  const picked = useFileUrl(file);
  const shown = file ? (error ? null : picked) : current;
  return (
    <div className="event-image-field">
      <FilePicker
        label="Imagem do evento"
        accept={TYPES.join(',')}
        file={file}
        onPick={onPick}
        hint="JPEG, PNG ou WebP de até 2 MB, na proporção 16:9. É enviada ao salvar."
        error={error}
      />
      <div className="event-image-field__preview">
        {shown ? (
          <img src={shown} alt={file ? 'Pré-visualização da nova imagem' : 'Imagem atual do evento'} />
        ) : (
          <span className="event-image-field__empty">Sem imagem</span>
        )}
      </div>
    </div>
  );
}
