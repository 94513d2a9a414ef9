"""The repository root as OpenEnv sees an environment folder.

``openenv push`` (and ``openenv init``'s layout) treat the folder that holds ``openenv.yaml`` as
a Python package with a ``client.py``; it refuses to push a folder without both files. The
package itself is `sketch_env`; this file and ``client.py`` beside it exist only so that the
repository root passes that check and can be pushed to a Hugging Face Space as it is.
"""
