// "Loading …" with a spinner, announced politely.

export function Loading(props: { what?: string }) {
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" />
      Loading {props.what ?? ''}…
    </p>
  );
}
