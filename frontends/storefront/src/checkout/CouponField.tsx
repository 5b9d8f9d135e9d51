import { useState, type KeyboardEvent } from 'react';
import { couponMessages, fromCents } from '@ticketing/proto';
import { Button, Field, formatBRL } from '@ticketing/shared';
import type { CouponState } from './useCoupon.ts';

/**
 * 'Cupom': the code typed and 'Aplicar', or the coupon applied, what it takes off and 'Remover'. A coupon that covers
 * none of the tickets chosen says so.
 */
export function CouponField({ coupon, discountCents }: { coupon: CouponState; discountCents: number }) {
  const [code, setCode] = useState('');
  const blank = code.trim() === '';

  if (coupon.applied) {
    return (
      <div className="coupon coupon--applied" role="status">
        <p className="coupon__applied">
          Cupom <strong>{coupon.applied.code}</strong>
          {discountCents > 0 ? <>: − {formatBRL(fromCents(discountCents))}</> : <>. {couponMessages.otherTypes}</>}
        </p>
        <Button
          variant="outline"
          onClick={() => {
            coupon.remove();
            setCode('');
          }}
        >
          Remover
        </Button>
      </div>
    );
  }

  // Enter applies the coupon, instead of confirming the purchase.
  function applyOnEnter(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (!blank) coupon.apply(code);
  }

  return (
    <Field label="Cupom" error={coupon.refusal ?? undefined} className="coupon">
      {(control) => (
        <div className="coupon__row">
          <input
            className="field__input"
            {...control}
            value={code}
            onChange={(event) => setCode(event.target.value.toUpperCase())}
            onKeyDown={applyOnEnter}
            autoCapitalize="characters"
            autoComplete="off"
            spellCheck={false}
            maxLength={40}
          />
          <Button variant="outline" disabled={blank} loading={coupon.checking} onClick={() => coupon.apply(code)}>
            Aplicar
          </Button>
        </div>
      )}
    </Field>
  );
}
