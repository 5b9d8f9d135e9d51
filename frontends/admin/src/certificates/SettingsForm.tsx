import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CertificateSettingsInput, CertificateSettingsView } from '@ticketing/proto';
import { api, Button, Checkbox, TextField, toast, toastError } from '@ticketing/shared';
import { TextArea } from '../lib/TextArea.tsx';
import { certificateSettingsKey } from './queries.ts';

const number = (text: string) => (text.trim() === '' ? undefined : Number(text.replace(',', '.')));

/** Reads a chosen PNG as the data URL the settings carry; the service checks its type and size again. */
const asDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });

/** The certificate settings of an event: on or off, hours per session, the minimum, the text and who signs. */
export function SettingsForm({ settings }: { settings: CertificateSettingsView }) {
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(settings.enabled);
  const [hours, setHours] = useState(() =>
    Object.fromEntries(settings.sessions.map((session) => [session.id, String(session.hours).replace('.', ',')])),
  );
  const [minimum, setMinimum] = useState(String(Math.round(settings.minimumAttendance * 100)));
  const [text, setText] = useState(settings.text);
  const [signerName, setSignerName] = useState(settings.signerName ?? '');
  const [signerRole, setSignerRole] = useState(settings.signerRole ?? '');
  const [signatureImage, setSignatureImage] = useState(settings.signatureImage);
  const [autoRelease, setAutoRelease] = useState(settings.autoReleaseHours?.toString() ?? '');

  const save = useMutation({
    mutationFn: (body: CertificateSettingsInput) =>
      api<CertificateSettingsView>(`/events/${settings.eventId}/certificate`, { method: 'PUT', body }),
    onSuccess: (saved) => {
      queryClient.setQueryData(certificateSettingsKey(settings.eventId), saved);
      toast({ title: 'Configurações do certificado salvas' });
    },
    onError: (error) => toastError('Erro ao salvar o certificado', error),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const percent = number(minimum);
    save.mutate({
      enabled,
      hoursBySession: Object.fromEntries(
        Object.entries(hours).map(([id, value]) => [id, number(value) ?? Number.NaN] as const),
      ),
      minimumAttendance: percent === undefined ? undefined : percent / 100,
      text,
      signerName: signerName || null,
      signerRole: signerRole || null,
      signatureImage,
      autoReleaseHours: number(autoRelease) ?? null,
    });
  }

  return (
    <form className="certificate-settings card" onSubmit={submit} noValidate>
      <h2 className="certificate-settings__title">Configurações</h2>
      <Checkbox
        label="Emitir certificados de participação para este evento"
        checked={enabled}
        onChange={(event) => setEnabled(event.target.checked)}
      />
      <fieldset className="certificate-settings__sessions">
        <legend>Carga horária de cada sessão</legend>
        {settings.sessions.map((session) => (
          <TextField
            key={session.id}
            label={`${session.label} (horas)`}
            inputMode="decimal"
            value={hours[session.id] ?? ''}
            onChange={(event) => setHours({ ...hours, [session.id]: event.target.value })}
          />
        ))}
      </fieldset>
      <TextField
        label="Frequência mínima (% das horas)"
        inputMode="numeric"
        hint="Quem assistir a menos horas que isso não recebe certificado."
        value={minimum}
        onChange={(event) => setMinimum(event.target.value)}
      />
      <TextArea
        label="Texto do certificado"
        hint="Use {nome}, {evento}, {datas}, {local} e {horas}: cada um é trocado pelo dado do participante ou do evento."
        rows={4}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      <TextField
        label="Nome de quem assina"
        value={signerName}
        onChange={(event) => setSignerName(event.target.value)}
      />
      <TextField
        label="Cargo de quem assina"
        value={signerRole}
        onChange={(event) => setSignerRole(event.target.value)}
      />
      <div className="certificate-settings__signature">
        <label className="field__label" htmlFor="certificate-signature">
          Assinatura (imagem PNG, até 200 KB)
        </label>
        <input
          id="certificate-signature"
          type="file"
          accept="image/png"
          onChange={async (event) => {
            const file = event.target.files?.[0];
            if (file) setSignatureImage(await asDataUrl(file));
          }}
        />
        {signatureImage && (
          <div className="certificate-settings__signature-preview">
            <img src={signatureImage} alt="Assinatura escolhida" />
            <Button type="button" variant="ghost" size="sm" onClick={() => setSignatureImage(null)}>
              Remover assinatura
            </Button>
          </div>
        )}
      </div>
      <TextField
        label="Liberação automática (horas depois do fim do evento)"
        inputMode="numeric"
        hint="Em branco, os certificados só saem quando você clicar em 'Emitir certificados'."
        value={autoRelease}
        onChange={(event) => setAutoRelease(event.target.value)}
      />
      <Button type="submit" loading={save.isPending}>
        Salvar configurações
      </Button>
    </form>
  );
}
