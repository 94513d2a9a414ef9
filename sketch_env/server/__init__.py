"""The OpenEnv server (`sketch_env.server.app`) and its typed client
(`sketch_env.server.client.SketchEnvClient`). Import the submodules directly: the app pulls in
FastAPI and uvicorn, which a client-only user does not need to load."""
