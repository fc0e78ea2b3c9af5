import { createContext } from "preact";
import { NO_ROUTES, type ServerRoutes } from "./server-routes.js";

export const RoutesContext = createContext<ServerRoutes>(NO_ROUTES);
