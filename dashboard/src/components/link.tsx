// An in-app link: navigates without a reload, marks the current page.
import type { ComponentChildren } from 'preact';
import { linkHandler } from '../router.js';

export function Link(props: { href: string; children: ComponentChildren; class?: string; current?: boolean }) {
  return (
    <a href={props.href} class={props.class} aria-current={props.current ? 'page' : undefined} onClick={linkHandler}>
      {props.children}
    </a>
  );
}
