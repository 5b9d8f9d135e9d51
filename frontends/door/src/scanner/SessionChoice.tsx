import type { EventSession } from '@ticketing/proto';
import { SelectField } from '@ticketing/shared';
import { sessionLabels } from '../door/door-session.ts';

interface SessionChoiceProps {
  label: string;
  hint?: string;
  className?: string;
  sessions: EventSession[];
  sessionId: string;
  onChange(sessionId: string): void;
}

/** The session of the event a door view follows ('Dia 2 — 07/12'); nothing to choose for an event of one session. */
export function SessionChoice({ label, hint, className, sessions, sessionId, onChange }: SessionChoiceProps) {
  if (sessions.length < 2) return null;
  const labels = sessionLabels(sessions);
  return (
    <SelectField
      label={label}
      hint={hint}
      className={className}
      value={sessionId}
      onChange={(event) => onChange(event.target.value)}
    >
      {sessions.map((session) => (
        <option key={session.id} value={session.id}>
          {labels.get(session.id)}
        </option>
      ))}
    </SelectField>
  );
}
