// React's default export as the payment provider's React components use it
// (`import React from 'react'`; React.useState…): only what they call. Given them in
// place of preact/compat's whole default object (see vite.preact.ts), whose every
// member would otherwise land in the vendor chunk every page loads.
import { createContext, createElement, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';

const React = { createContext, createElement, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState };

export default React;
