import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CouponView } from '@ticketing/proto';
import { api, Button, toast, toastError } from '@ticketing/shared';
import { COUPONS_KEY } from './queries.ts';

/** Turns a coupon off, or on again: uses already taken stand either way, so one click does it. */
export function ToggleCoupon({ coupon }: { coupon: CouponView }) {
  const queryClient = useQueryClient();
  const action = coupon.isActive ? 'Desativar' : 'Reativar';
  const toggle = useMutation({
    mutationFn: () =>
      api<CouponView>(`/coupons/${coupon.id}`, { method: 'PATCH', body: { isActive: !coupon.isActive } }),
    onSuccess: async (saved) => {
      toast(
        saved.isActive
          ? { title: 'Cupom reativado', description: `O cupom ${saved.code} volta a ser aceito na compra.` }
          : { title: 'Cupom desativado', description: `O cupom ${saved.code} não é mais aceito na compra.` },
      );
      await queryClient.invalidateQueries({ queryKey: COUPONS_KEY });
    },
    onError: (error) => toastError(`Erro ao ${action.toLowerCase()} o cupom`, error),
  });
  return (
    <Button
      variant={coupon.isActive ? 'outline' : 'ghost'}
      size="sm"
      loading={toggle.isPending}
      aria-label={`${action} o cupom ${coupon.code}`}
      onClick={() => toggle.mutate()}
    >
      {action}
    </Button>
  );
}
