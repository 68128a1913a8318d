import CFFmpeg
import CPulse
