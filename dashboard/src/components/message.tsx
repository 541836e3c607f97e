// Outcomes in words: errors in a role="alert" region, confirmations in a role="status" one.

/** An error (announced at once) or a confirmation (announced politely). */
export function Message(props: { error?: string | null; success?: string | null }) {
  return (
    <>
      <div role="alert" class={props.error ? 'message error' : 'visually-hidden'}>
        {props.error ?? ''}
      </div>
      <div role="status" class={props.success ? 'message success' : 'visually-hidden'}>
        {props.success ?? ''}
      </div>
    </>
  );
}
